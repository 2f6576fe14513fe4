"""Live pydantic-ai agents for the adapter tests. No ``from __future__ import annotations``
here: pydantic-ai reads a tool's annotations at run time, from this module's namespace."""

from dataclasses import dataclass

from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import CustomEvent
from pydantic_ai.models.test import TestModel


@dataclass
class SearchProgress(CustomEvent):
    """Emitted by the search tool as it goes."""

    done: int
    total: int


def searching_agent() -> Agent[None, str]:
    """An agent whose one tool emits two ``SearchProgress`` events before it answers."""
    agent: Agent[None, str] = Agent(TestModel())

    @agent.tool
    async def search(ctx: RunContext[None], q: str) -> str:
        """Search the notes."""
        for done in (1, 2):
            await ctx.emit(SearchProgress(done=done, total=2))
        return f"found {q}"

    return agent
