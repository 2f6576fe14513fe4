"""What a run resolved to, read off its parts: Mastra's promise values and the part lists."""

from __future__ import annotations

from typing import Any, TypeVar

from .context import Fold
from .parts import (
    BackgroundTask,
    DataPart,
    FilePart,
    NestedRun,
    Notice,
    Part,
    ReasoningPart,
    SourcePart,
    StepPart,
    TextPart,
    ToolCall,
    WorkflowRun,
    WorkflowStep,
)

P = TypeVar("P", bound=Part)


class RunViews:
    """The values ``RunState`` reads off its parts and fold context (nothing stored here)."""

    parts: list[Part]
    _fold: Fold

    @property
    def text(self) -> str:
        """The last step's answer text, as Mastra's ``stream.text`` resolves it."""
        root = self._fold.root
        parts = root.text_parts_by_step.get(root.step_id)
        if not parts and root.text_parts_by_step:
            parts = list(root.text_parts_by_step.values())[-1]
        return "".join(p.text for p in parts or ())

    @property
    def full_text(self) -> str:
        """The answer text of every step of the top-level run, in order."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart) and p.parent is None)

    @property
    def reasoning_text(self) -> str:
        """All reasoning of the top-level run (Mastra's ``reasoningText``)."""
        return "".join(
            p.text for p in self.parts if isinstance(p, ReasoningPart) and p.parent is None
        )

    @property
    def steps(self) -> list[StepPart]:
        """The top-level run's steps."""
        return [p for p in self.parts if isinstance(p, StepPart) and p.parent is None]

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every tool call of the top-level run, whatever became of it."""
        return [p for p in self.parts if isinstance(p, ToolCall) and p.parent is None]

    @property
    def tool_results(self) -> list[ToolCall]:
        """The top-level tool calls that returned a result (Mastra's ``toolResults``: a call
        that ended in ``tool-error`` is not one)."""
        return [p for p in self.tool_calls if p.has_result]

    @property
    def sources(self) -> list[SourcePart]:
        """Every source cited."""
        return self.parts_of(SourcePart)

    @property
    def files(self) -> list[FilePart]:
        """Every file produced."""
        return self.parts_of(FilePart)

    @property
    def object(self) -> Any:
        """The structured output (partial while streaming), or None."""
        obj = self._fold.root.objects
        return None if obj is None else obj.object

    @property
    def data(self) -> list[DataPart]:
        """Persisted ``data-*`` parts, each reconciled to its latest value."""
        return self.parts_of(DataPart)

    @property
    def background_tasks(self) -> list[BackgroundTask]:
        """Background tasks and what became of them."""
        return self.parts_of(BackgroundTask)

    @property
    def workflow(self) -> WorkflowRun | None:
        """The top-level workflow run, for workflow streams."""
        return self._fold.root.workflow

    @property
    def workflow_steps(self) -> list[WorkflowStep]:
        """Every workflow step, nested ones included."""
        return self.parts_of(WorkflowStep)

    @property
    def nested_runs(self) -> list[NestedRun]:
        """Runs found inside tool outputs and workflow step outputs."""
        return self.parts_of(NestedRun)

    @property
    def notices(self) -> list[Notice]:
        """Errors, aborts, tripwires, goals and bad chunks, in order."""
        return self.parts_of(Notice)

    def parts_of(self, kind: type[P]) -> list[P]:
        """Every part of one kind (``SourcePart``, ``ToolCall`` ...), nested ones included."""
        return [p for p in self.parts if isinstance(p, kind)]

    def part(self, part_id: str) -> Part | None:
        """The part with this id."""
        return self._fold.by_id.get(part_id)

    def children(self, part_id: str | None) -> list[Part]:
        """Parts nested directly under ``part_id`` (None: the top level)."""
        return [p for p in self.parts if p.parent == part_id]
