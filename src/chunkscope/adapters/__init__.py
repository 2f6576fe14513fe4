"""Adapters: other streams turned into Mastra chunks, an SSE parser, and live HTTP sources.

Every adapter yields Mastra chunk dicts (``{type, runId, from, payload}``; ``data-*`` chunks
bare). Each format has a streaming entry point that takes a sync or an async iterable and
returns the same kind, and a ``convert_*`` function for a whole list:

* Konan LLM chat API streaming events (``on_*`` SSE): :func:`from_konan` / :func:`convert_konan`
* LangChain ``astream_events`` v2: :func:`from_langchain` / :func:`convert_langchain`
* a LangChain chat model's ``astream_events`` v3: :func:`from_langchain_v3` /
  :func:`convert_langchain_v3`
* pydantic-ai ``run_stream_events``: :func:`from_pydantic_ai` / :func:`convert_pydantic_ai`
* OpenAI chat completions and responses: :func:`from_openai` / :func:`convert_openai`
* AI SDK v5 UI message stream: :func:`from_ai_sdk` / :func:`convert_ai_sdk`
* AI SDK v4 data stream: :func:`from_data_stream_v4` / :func:`convert_data_stream_v4`
* Mastra legacy workflow events: :func:`from_legacy_workflow` / :func:`convert_legacy_workflow`
* Mastra chunks as they are: :func:`from_mastra`
* any of these, detected from the first events: :func:`adapt`

A foreign stream that raises part-way ends with an ``error`` chunk (open parts closed) and
the exception is then re-raised. Live sources (:func:`sse`, :func:`mastra`) never raise for
transport problems: they end with an ``error`` chunk that says what happened.
"""

from ._base import StreamAdapter
from ._writer import Chunk, MastraWriter
from .ai_sdk import AISdkAdapter, convert_ai_sdk, from_ai_sdk
from .detection import ADAPTERS, AutoAdapter, adapt, detect
from .http import HttpChunkStream, sse
from .konan import KonanAdapter, convert_konan, from_konan
from .langchain import LangChainAdapter, convert_langchain, from_langchain
from .langchain_v3 import LangChainV3Adapter, convert_langchain_v3, from_langchain_v3
from .legacy import (
    DataStreamV4Adapter,
    LegacyWorkflowAdapter,
    convert_data_stream_v4,
    convert_legacy_workflow,
    from_data_stream_v4,
    from_legacy_workflow,
)
from .mastra_chunks import MastraChunkAdapter, from_mastra
from .mastra_client import MastraClient, mastra
from .openai import OpenAIAdapter, convert_openai, from_openai
from .pydantic_ai import PydanticAIAdapter, convert_pydantic_ai, from_pydantic_ai
from .sse_parser import SSEEvent, SSEParser, aparse_sse, parse_sse

__all__ = [
    "ADAPTERS",
    "AISdkAdapter",
    "AutoAdapter",
    "Chunk",
    "DataStreamV4Adapter",
    "HttpChunkStream",
    "KonanAdapter",
    "LangChainAdapter",
    "LangChainV3Adapter",
    "LegacyWorkflowAdapter",
    "MastraChunkAdapter",
    "MastraClient",
    "MastraWriter",
    "OpenAIAdapter",
    "PydanticAIAdapter",
    "SSEEvent",
    "SSEParser",
    "StreamAdapter",
    "adapt",
    "aparse_sse",
    "convert_ai_sdk",
    "convert_data_stream_v4",
    "convert_konan",
    "convert_langchain",
    "convert_langchain_v3",
    "convert_legacy_workflow",
    "convert_openai",
    "convert_pydantic_ai",
    "detect",
    "from_ai_sdk",
    "from_data_stream_v4",
    "from_konan",
    "from_langchain",
    "from_langchain_v3",
    "from_legacy_workflow",
    "from_mastra",
    "from_openai",
    "from_pydantic_ai",
    "mastra",
    "parse_sse",
    "sse",
]
