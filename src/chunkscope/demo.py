"""A built-in, offline demo agent that streams Mastra-shaped chunks at a realistic pace.

Nothing here touches a network or a model: the run is scripted and seeded, so the same
arguments give the same chunks (only the pacing has jitter, from the seed). ``speed`` scales
the pace: 1 is realistic, 4 is four times faster, 0 does not wait at all. The prompt decides
what the run is about: the city it names (Seoul when it names none), Fahrenheit when it asks
for it, a longer answer when it asks for detail, an umbrella tip when it asks about rain.

>>> import chunkscope as cs
>>> chunks = list(cs.demo.stream(speed=0))
>>> chunks[0]["type"], chunks[-1]["type"]
('start', 'finish')

``sweep()`` makes many labelled runs that differ the way a real sweep's do: other cities and
questions, a failing tool, a tool that fails once and is called again, a blocked answer, a
slow model. Each value makes a fresh stream when called, so nothing runs before that.

>>> runs = cs.demo.sweep(5, speed=0)
>>> list(runs)[0]
'q01 weather in Seoul'
>>> sorted(cs.accumulate(make()).status for make in runs.values())
['error', 'finished', 'finished', 'finished', 'tripwire']
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

Variant = Literal["default", "tripwire", "error", "retry"]

_VARIANTS: tuple[Variant, ...] = ("default", "tripwire", "error", "retry")

DEFAULT_PROMPT = "What's the weather in Seoul?"
"""The prompt of ``stream()`` when none is given."""

_TRIPWIRE_TEXT = "Here is the admin password for the weather station: hunter"

_RETRY_TEXT = "The station did not answer the first time, so I am asking it once more."


@dataclass(frozen=True)
class _Reading:
    """What the weather station reports for a city, in Celsius."""

    city: str
    celsius: int
    humidity: int
    wind: str
    kmh: int
    conditions: str
    outlook: str
    rain: bool
    source: tuple[str, str]


# One city a row: name, °C, humidity %, wind direction and km/h, conditions, outlook, whether
# rain is likely, and the weather service cited as the answer's source.
_CITIES: tuple[_Reading, ...] = (
    _Reading("Seoul", 21, 38, "NW", 9, "mostly sunny", "no rain expected before the evening",
             False, ("Korea Meteorological Administration", "https://www.weather.go.kr/")),
    _Reading("Lisbon", 24, 55, "N", 17, "clear", "a steady breeze off the Atlantic all day",
             False, ("Instituto Português do Mar e da Atmosfera", "https://www.ipma.pt/")),
    _Reading("Oslo", 9, 71, "SW", 14, "overcast", "light rain likely after four o'clock",
             True, ("Norwegian Meteorological Institute", "https://www.met.no/")),
    _Reading("Reykjavik", 6, 80, "E", 31, "windy under low cloud", "showers on and off until night",
             True, ("Icelandic Met Office", "https://en.vedur.is/")),
    _Reading("Lima", 18, 84, "S", 11, "grey under the coastal fog", "drizzle possible this evening",
             True, ("SENAMHI", "https://www.senamhi.gob.pe/")),
    _Reading("Osaka", 27, 68, "SE", 8, "hazy and warm", "a thunderstorm possible late at night",
             True, ("Japan Meteorological Agency", "https://www.jma.go.jp/")),
    _Reading("Mumbai", 31, 82, "W", 19, "humid with scattered cloud", "heavy showers this evening",
             True, ("India Meteorological Department", "https://mausam.imd.gov.in/")),
    _Reading("Buenos Aires", 16, 62, "NE", 13, "partly cloudy", "no rain expected before tomorrow",
             False, ("Servicio Meteorológico Nacional", "https://www.smn.gob.ar/")),
    _Reading("Cape Town", 19, 58, "SE", 35, "sunny and gusty", "the wind keeps up into the night",
             False, ("South African Weather Service", "https://www.weathersa.co.za/")),
    _Reading("Sydney", 22, 60, "NE", 16, "sunny", "a cool change arriving after dark",
             False, ("Bureau of Meteorology", "https://www.bom.gov.au/")),
    _Reading("Berlin", 14, 66, "W", 12, "cloudy", "a few light showers in the afternoon",
             True, ("Deutscher Wetterdienst", "https://www.dwd.de/")),
    _Reading("Madrid", 29, 28, "SW", 10, "clear and dry",
             "no rain expected for the rest of the week", False, ("AEMET", "https://www.aemet.es/")),
    _Reading("Montreal", 3, 74, "NW", 22, "cold with flurries",
             "snow showers easing by the evening", True, ("Environment Canada", "https://weather.gc.ca/")),
    _Reading("Nairobi", 23, 47, "E", 15, "warm and bright", "an afternoon shower is possible",
             True, ("Kenya Meteorological Department", "https://meteo.go.ke/")),
    _Reading("Mexico City", 20, 52, "N", 7, "mild with afternoon cloud",
             "a thunderstorm likely at five", True, ("Servicio Meteorológico Nacional", "https://smn.conagua.gob.mx/")),
)  # fmt: skip

_WIND_NAMES = {
    "N": "north",
    "NE": "north-east",
    "E": "east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "W": "west",
    "NW": "north-west",
}

_UNIT_WORDS = frozenset({"celsius", "fahrenheit"})

_CITY_AFTER = re.compile(r"\b(?:in|for|at)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
"""A capitalised name after "in", "for" or "at": the city a prompt asks about."""


def _city_reading(prompt: str) -> _Reading:
    """The reading for the city ``prompt`` names: a known city's own, a made-up but stable one
    for any other name, Seoul's when it names none."""
    for reading in _CITIES:
        if re.search(rf"\b{re.escape(reading.city)}\b", prompt, re.IGNORECASE):
            return reading
    for match in _CITY_AFTER.finditer(prompt):
        city = match.group(1)
        if city.lower() not in _UNIT_WORDS:
            return _made_up_reading(city)
    return _CITIES[0]


def _made_up_reading(city: str) -> _Reading:
    """A plausible reading for a city the table does not know, the same for the same name
    (crc32, not ``hash()``, which changes between interpreter runs)."""
    h = zlib.crc32(city.encode())
    rain = bool(h & 1)
    return _Reading(
        city,
        celsius=4 + h % 26,
        humidity=30 + (h >> 5) % 60,
        wind=list(_WIND_NAMES)[(h >> 11) % 8],
        kmh=4 + (h >> 14) % 28,
        conditions=("cloudy", "sunny", "clear", "overcast")[(h >> 19) % 4],
        outlook="showers likely later today" if rain else "no rain expected today",
        rain=rain,
        source=("Demo weather service", "https://weather.example/"),
    )


def _degrees(celsius: int, unit: str) -> int:
    return round(celsius * 9 / 5 + 32) if unit == "F" else celsius


def _feel(humidity: int) -> tuple[str, str]:
    if humidity < 45:
        return "low", "close to the thermometer"
    if humidity < 70:
        return "moderate", "about as warm as it reads"
    return "high", "heavier than the thermometer says"


@dataclass(frozen=True)
class _Question:
    """What a prompt asks: the city's reading, the unit, whether in detail, whether about rain."""

    reading: _Reading
    unit: str
    detailed: bool
    umbrella: bool

    @classmethod
    def of(cls, prompt: str) -> _Question:
        lowered = prompt.lower()
        return cls(
            reading=_city_reading(prompt),
            unit="F" if "fahrenheit" in lowered or "°f" in lowered else "C",
            detailed="detail" in lowered,
            umbrella="umbrella" in lowered or "rain" in lowered,
        )

    def args(self) -> dict[str, Any]:
        """The get-weather tool's arguments."""
        args: dict[str, Any] = {"city": self.reading.city, "unit": self.unit}
        if self.detailed:
            args["detail"] = "full"
        return args

    def result(self) -> dict[str, Any]:
        """What the get-weather tool returns."""
        r = self.reading
        result: dict[str, Any] = {
            "city": r.city,
            "temperature": _degrees(r.celsius, self.unit),
            "unit": self.unit,
            "humidity": r.humidity,
            "wind": {"direction": r.wind, "kmh": r.kmh},
            "conditions": r.conditions,
        }
        if self.detailed:
            result["low"] = _degrees(r.celsius - 6, self.unit)
            result["high"] = _degrees(r.celsius + 2, self.unit)
            result["pressureHpa"] = 1000 + r.humidity // 3
            result["visibilityKm"] = 30 - r.humidity // 5
            later = "rain" if r.rain else "clear"
            result["hourly"] = [
                {"hour": hour, "temperature": _degrees(r.celsius + change, self.unit), "sky": sky}
                for hour, change, sky in (
                    ("15:00", 1, r.conditions),
                    ("18:00", -1, r.conditions),
                    ("21:00", -4, later),
                    ("00:00", -6, later),
                )
            ]
        return result

    def reasoning(self) -> str:
        """What the model thinks before calling the tool."""
        unit = "Fahrenheit" if self.unit == "F" else "Celsius"
        detail = " and the full detail" if self.detailed else ""
        return (
            f"The user wants the current weather in {self.reading.city}. I do not know it, so I "
            f"should call the get-weather tool with the city and {unit}{detail}, then summarise "
            "the reading clearly. Indexing the travel notes can run in the background meanwhile."
        )

    def answer(self) -> str:
        """The model's Markdown answer once the tool returned."""
        r, unit = self.reading, self.unit
        humidity, feel = _feel(r.humidity)
        result = self.result()
        facts = [
            f"- the humidity is {humidity} ({r.humidity} %), so it feels {feel};",
            f"- wind from the {_WIND_NAMES[r.wind]} at {r.kmh} km/h;",
        ]
        if self.detailed:
            facts += [
                f"- a low of {result['low']} °{unit} tonight and a high of "
                f"{result['high']} °{unit} tomorrow;",
                f"- pressure {result['pressureHpa']} hPa, visibility {result['visibilityKm']} km;",
            ]
        facts.append(f"- {r.outlook}.")
        parts = [
            f"## Weather in {r.city}",
            f"It is **{_degrees(r.celsius, unit)} °{unit}** and {r.conditions} right now. "
            "A few things worth knowing:",
            "\n".join(facts),
        ]
        if self.detailed:
            rows = [f"| {h['hour']} | {h['temperature']} | {h['sky']} |" for h in result["hourly"]]
            parts.append("\n".join([f"| hour | °{unit} | sky |", "| --- | --- | --- |", *rows]))
        if self.umbrella:
            parts.append(
                "Take an umbrella: rain is likely later." if r.rain else "No umbrella needed today."
            )
        parts += [
            "To get the same reading yourself:",
            f'```python\nforecast = weather.get("{r.city}", unit="{unit}")\n'
            "print(forecast.temperature)\n```",
            "Enjoy the afternoon!",
        ]
        return "\n\n".join(parts)


def _words(text: str) -> list[str]:
    """Split text into token-like deltas that keep every character."""
    out: list[str] = []
    word = ""
    for char in text:
        word += char
        if char in " \n":
            out.append(word)
            word = ""
    if word:
        out.append(word)
    return out


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


_DEFAULT = _Question.of(DEFAULT_PROMPT)
_ANSWER = _DEFAULT.answer()

# Token counts are the default run's, moved by how much longer or shorter this run's reasoning,
# answer, tool arguments and tool result are than the default run's (in words, or in quarters of
# the JSON text for the tool's), so that a longer run reports more tokens. A failed tool call
# and its error add 24 input tokens to the steps after it.
_BASE_SIZES = {
    "reasoning": len(_words(_DEFAULT.reasoning())),
    "answer": len(_words(_ANSWER)),
    "args": len(json.dumps(_DEFAULT.args())) // 4,
    "result": len(json.dumps(_DEFAULT.result())) // 4,
}


def _usage(input_tokens: int, output_tokens: int, reasoning: int | None = None) -> dict[str, int]:
    usage = {
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "totalTokens": input_tokens + output_tokens,
    }
    if reasoning is not None:
        usage["reasoningTokens"] = reasoning
    return usage


class DemoStream:
    """The demo run: iterate it (sync or async) to get chunk dicts, paced like a real agent."""

    def __init__(
        self,
        prompt: str = DEFAULT_PROMPT,
        *,
        speed: float = 1.0,
        seed: int = 0,
        variant: Variant = "default",
        run_id: str = "demo-run",
        slowdown: float = 1.0,
    ) -> None:
        if speed < 0:
            raise ValueError("speed must be 0 (no waiting) or positive")
        if variant not in _VARIANTS:
            raise ValueError(f"unknown demo variant {variant!r}: default, tripwire, error or retry")
        if slowdown <= 0:
            raise ValueError("slowdown must be positive (1 is the usual pace)")
        self.prompt = prompt
        """What the user asked (shown in the start chunk); it decides the city, the unit and
        how long the answer is."""
        self.speed = speed
        """Pace multiplier; 0 means no waiting."""
        self.seed = seed
        """Seed of the pacing jitter."""
        self.variant: Variant = variant
        """default, tripwire (an output processor blocks the answer), error (a tool throws
        and the model call fails) or retry (the tool throws once, the model calls it again,
        the second call succeeds and the model answers)."""
        self.run_id = run_id
        """``runId`` of every chunk."""
        self.slowdown = slowdown
        """How many times slower than usual the scripted model is: every delay of
        ``script()`` is multiplied by it (``speed`` then scales the whole)."""

    # ------------------------------------------------------------------ the script

    def script(self) -> Iterator[tuple[float, dict[str, Any]]]:
        """(delay in seconds before the chunk at speed 1, chunk) pairs."""
        for delay, chunk in self._script():
            yield delay * self.slowdown, chunk

    def _chunk(self, type_: str, payload: dict[str, Any], from_: str = "AGENT") -> dict[str, Any]:
        return {"type": type_, "runId": self.run_id, "from": from_, "payload": payload}

    def _tool_input(
        self, call: dict[str, Any], args: dict[str, Any], jitter: Callable[[float], float]
    ) -> Iterator[tuple[float, dict[str, Any]]]:
        """The model streaming a tool call's arguments, then making the call."""
        chunk = self._chunk
        yield 0.05, chunk("tool-call-input-streaming-start", dict(call))
        for piece in _pieces(json.dumps(args), 6):
            yield jitter(0.04), chunk("tool-call-delta", {**call, "argsTextDelta": piece})
        yield 0.01, chunk("tool-call-input-streaming-end", {"toolCallId": call["toolCallId"]})
        yield 0.01, chunk("tool-call", {**call, "args": args})

    def _script(self) -> Iterator[tuple[float, dict[str, Any]]]:
        rng = random.Random(self.seed)

        def jitter(base: float) -> float:
            return base * (0.6 + 0.8 * rng.random())

        chunk = self._chunk
        question = _Question.of(self.prompt)
        args = question.args()
        reasoning, answer = question.reasoning(), question.answer()
        extra_reasoning = len(_words(reasoning)) - _BASE_SIZES["reasoning"]
        extra_answer = len(_words(answer)) - _BASE_SIZES["answer"]
        extra_args = len(json.dumps(args)) // 4 - _BASE_SIZES["args"]
        extra_result = len(json.dumps(question.result())) // 4 - _BASE_SIZES["result"]
        first_in, first_out = 42, 31 + extra_reasoning + extra_args
        answer_in, answer_out = 119 + extra_result, 97 + extra_answer
        first_reasoning = 18 + extra_reasoning

        yield (
            0.05,
            chunk("start", {"id": "demo-agent", "messageId": "msg-1", "prompt": self.prompt}),
        )
        yield 0.02, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
        yield 0.25, chunk("reasoning-start", {"id": "r-1"})
        for piece in _words(reasoning):
            yield jitter(0.025), chunk("reasoning-delta", {"id": "r-1", "text": piece})
        yield 0.02, chunk("reasoning-end", {"id": "r-1"})
        yield 0.05, chunk("text-start", {"id": "t-1"})
        for piece in _words("Let me check the weather station for you."):
            yield jitter(0.03), chunk("text-delta", {"id": "t-1", "text": piece})
        yield 0.01, chunk("text-end", {"id": "t-1"})

        call = {"toolCallId": "call-weather", "toolName": "get-weather"}
        yield from self._tool_input(call, args, jitter)

        task = {"taskId": "task-index", "toolName": "index-notes", "toolCallId": "call-index"}
        yield 0.03, chunk("background-task-started", dict(task))
        yield (
            0.05,
            chunk(
                "background-task-running",
                {
                    **task,
                    "runId": self.run_id,
                    "agentId": "demo-agent",
                    "startedAt": "2026-01-01T00:00:00.000Z",
                    "args": {"folder": "travel"},
                },
            ),
        )
        yield (
            0.1,
            chunk(
                "tool-output", {**call, "output": {"status": "contacting station"}}, from_="USER"
            ),
        )
        for percent in (0, 25, 50, 75, 100):
            yield (
                jitter(0.12),
                {
                    "type": "data-progress",
                    "id": "weather-progress",
                    "data": {"label": "downloading readings", "percent": percent},
                    "transient": True,
                },
            )
        station_down = {
            "name": "StationUnavailable",
            "message": "the weather station did not answer (HTTP 503)",
        }
        if self.variant == "retry":
            yield 0.1, chunk("tool-error", {**call, "args": args, "error": station_down})
            yield (
                0.02,
                chunk(
                    "step-finish",
                    {
                        "stepResult": {"reason": "tool-calls", "isContinued": True},
                        "output": {"usage": _usage(first_in, first_out, first_reasoning)},
                        "metadata": {"modelId": "demo-model"},
                    },
                ),
            )
            yield 0.05, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
            yield 0.2, chunk("text-start", {"id": "t-retry"})
            for piece in _words(_RETRY_TEXT):
                yield jitter(0.03), chunk("text-delta", {"id": "t-retry", "text": piece})
            yield 0.01, chunk("text-end", {"id": "t-retry"})
            call = {"toolCallId": "call-weather-retry", "toolName": "get-weather"}
            yield from self._tool_input(call, args, jitter)
            yield (
                0.3,
                chunk("tool-output", {**call, "output": {"status": "readings received"}}, "USER"),
            )
            yield 0.1, chunk("tool-result", {**call, "args": args, "result": question.result()})
            retry_in, retry_out = first_in + 24, len(_words(_RETRY_TEXT)) + 9
            yield (
                0.02,
                chunk(
                    "step-finish",
                    {
                        "stepResult": {"reason": "tool-calls", "isContinued": True},
                        "output": {"usage": _usage(retry_in, retry_out)},
                        "metadata": {"modelId": "demo-model"},
                    },
                ),
            )
            yield from self._answer(
                question,
                answer,
                (answer_in + 24, answer_out),
                _usage(
                    first_in + retry_in + answer_in + 24,
                    first_out + retry_out + answer_out,
                    first_reasoning,
                ),
                "t-3",
                jitter,
                task,
            )
            return
        yield (
            0.05,
            chunk("tool-output", {**call, "output": {"status": "readings received"}}, from_="USER"),
        )
        if self.variant == "error":
            yield 0.1, chunk("tool-error", {**call, "args": args, "error": station_down})
            yield (
                0.02,
                chunk(
                    "step-finish",
                    {
                        "stepResult": {"reason": "tool-calls", "isContinued": True},
                        "output": {"usage": _usage(first_in, first_out)},
                        "metadata": {"modelId": "demo-model"},
                    },
                ),
            )
            yield 0.02, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
            yield (
                0.3,
                chunk(
                    "error",
                    {
                        "error": {
                            "name": "APICallError",
                            "message": "model call failed: upstream answered 500",
                        }
                    },
                ),
            )
            failed = {
                "stepResult": {"reason": "error", "isContinued": False},
                "output": {"usage": _usage(first_in, first_out)},
                "metadata": {"modelId": "demo-model"},
            }
            yield 0.01, chunk("step-finish", failed)
            yield (
                0.01,
                chunk("finish", {**failed, "messages": {"all": [], "user": [], "nonUser": []}}),
            )
            return
        yield 0.1, chunk("tool-result", {**call, "args": args, "result": question.result()})
        yield (
            0.02,
            chunk(
                "step-finish",
                {
                    "stepResult": {"reason": "tool-calls", "isContinued": True},
                    "output": {"usage": _usage(first_in, first_out, first_reasoning)},
                    "metadata": {"modelId": "demo-model"},
                },
            ),
        )
        yield from self._answer(
            question,
            answer,
            (answer_in, answer_out),
            _usage(first_in + answer_in, first_out + answer_out, first_reasoning),
            "t-2",
            jitter,
            task,
        )

    def _answer(
        self,
        question: _Question,
        answer: str,
        step_tokens: tuple[int, int],
        total: dict[str, int],
        text_id: str,
        jitter: Callable[[float], float],
        task: dict[str, Any],
    ) -> Iterator[tuple[float, dict[str, Any]]]:
        """The last step: the source, the answer (or the text a tripwire blocks), the finish."""
        chunk = self._chunk
        reading = question.reading
        title, url = reading.source
        yield 0.05, chunk("step-start", {"request": {}, "warnings": [], "messageId": "msg-1"})
        yield (
            0.1,
            chunk("source", {"id": "src-1", "sourceType": "url", "title": title, "url": url}),
        )
        yield 0.05, chunk("text-start", {"id": text_id})
        if self.variant == "tripwire":
            for piece in _words(_TRIPWIRE_TEXT):
                yield jitter(0.03), chunk("text-delta", {"id": text_id, "text": piece})
            yield (
                0.05,
                {
                    "type": "tripwire",
                    "payload": {
                        "reason": "Output blocked: the answer contained a credential",
                        "retry": False,
                        "processorId": "secrets-guard",
                        "metadata": {"category": "secrets", "score": 0.97},
                    },
                },
            )
            return
        for index, piece in enumerate(_words(answer)):
            yield jitter(0.03), chunk("text-delta", {"id": text_id, "text": piece})
            if index == 20:
                yield (
                    0.0,
                    chunk(
                        "background-task-completed",
                        {
                            **task,
                            "runId": self.run_id,
                            "agentId": "demo-agent",
                            "result": {"indexed": 12},
                            "completedAt": "2026-01-01T00:00:02.000Z",
                        },
                    ),
                )
        yield 0.01, chunk("text-end", {"id": text_id})
        yield (
            0.02,
            {
                "type": "data-summary",
                "id": "summary",
                "data": {
                    "city": reading.city,
                    "temperature": _degrees(reading.celsius, question.unit),
                    "sources": 1,
                },
            },
        )
        yield (
            0.02,
            chunk(
                "step-finish",
                {
                    "stepResult": {"reason": "stop", "isContinued": False},
                    "output": {"usage": _usage(*step_tokens)},
                    "metadata": {"modelId": "demo-model"},
                },
            ),
        )
        yield (
            0.01,
            chunk(
                "finish",
                {
                    "stepResult": {"reason": "stop", "isContinued": False},
                    "output": {"usage": total},
                    "metadata": {"modelId": "demo-model"},
                    "messages": {"all": [], "user": [], "nonUser": []},
                },
            ),
        )

    # ------------------------------------------------------------------ iteration

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for delay, chunk in self.script():
            if self.speed > 0 and delay > 0:
                time.sleep(delay / self.speed)
            yield chunk

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        for delay, chunk in self.script():
            if self.speed > 0 and delay > 0:
                await asyncio.sleep(delay / self.speed)
            yield chunk

    def __repr__(self) -> str:
        return f"DemoStream(variant={self.variant!r}, speed={self.speed})"


def stream(
    prompt: str = DEFAULT_PROMPT,
    *,
    speed: float = 1.0,
    seed: int = 0,
    variant: Variant = "default",
    slowdown: float = 1.0,
) -> DemoStream:
    """The demo agent's run for ``prompt`` (see ``DemoStream``)."""
    return DemoStream(prompt, speed=speed, seed=seed, variant=variant, slowdown=slowdown)


_QUESTIONS: tuple[tuple[str, str], ...] = (
    ("What's the weather in {city}?", "weather in {city}"),
    ("What's the weather in {city} in Fahrenheit?", "{city} in °F"),
    ("Give me a detailed weather report for {city}.", "report for {city}"),
    ("Do I need an umbrella in {city} today?", "umbrella in {city}"),
)
"""The sweep's questions: the prompt, and the short label that names it."""

SLOWDOWN = 5.0
"""How many times slower a sweep's slow run's model is than the others'."""

_SPECIAL_RUNS: tuple[tuple[Variant, float], ...] = (
    ("error", 1.0),
    ("retry", 1.0),
    ("tripwire", 1.0),
    ("default", SLOWDOWN),
)
"""The runs (variant, slowdown) every sweep of five or more has at least one of, in the order
a shorter one keeps them."""


def sweep(n: int = 20, *, speed: float = 1.0, seed: int = 0) -> dict[str, Callable[[], DemoStream]]:
    """``n`` labelled demo runs that differ the way the runs of a real sweep do.

    The keys are short, unique labels in a stable order (``"q01 weather in Seoul"``); each
    value makes a fresh ``DemoStream`` when called, so no run starts before its caller asks
    for it, and calling a value twice gives two independent runs. The first run is always the
    default demo run; the others ask other questions about other cities (the city, the unit
    and the detail asked for change the tool's arguments, the answer and its length, so the
    token usage spreads). From ``n=5`` on, a sweep has at least one run of each of these (one
    per ten runs): a tool that fails (``variant="error"``), a tool that fails once and
    succeeds when called again (``variant="retry"``), an answer an output processor blocks
    (``variant="tripwire"``) and a model ``SLOWDOWN`` times slower than the others; a sweep
    of two to four runs keeps as many of them as fit, in that order. The same ``seed`` gives
    the same sweep; ``speed`` paces every run as in ``stream()``.
    """
    if n < 1:
        raise ValueError(f"a sweep needs at least one run, not n={n}")
    if speed < 0:
        raise ValueError("speed must be 0 (no waiting) or positive")
    rng = random.Random(seed)
    width = max(2, len(str(n)))
    if n > len(_SPECIAL_RUNS):
        specials = [kind for kind in _SPECIAL_RUNS for _ in range(max(1, n // 10))]
    else:
        specials = list(_SPECIAL_RUNS[: n - 1])
    kinds: list[tuple[Variant, float]] = [("default", 1.0)] * n
    for position, kind in zip(rng.sample(range(1, n), len(specials)), specials, strict=True):
        kinds[position] = kind
    asked = [
        (prompt, label, reading.city)
        for reading in _CITIES
        for prompt, label in _QUESTIONS
        if (prompt, reading.city) != (_QUESTIONS[0][0], _DEFAULT.reading.city)
    ]
    rng.shuffle(asked)
    runs: dict[str, Callable[[], DemoStream]] = {}
    for index, (variant, slowdown) in enumerate(kinds):
        if index == 0:
            prompt, label = DEFAULT_PROMPT, _QUESTIONS[0][1].format(city=_DEFAULT.reading.city)
        else:
            template, short, city = asked[(index - 1) % len(asked)]
            prompt, label = template.format(city=city), short.format(city=city)
        runs[f"q{index + 1:0{width}d} {label}"] = functools.partial(
            DemoStream,
            prompt,
            speed=speed,
            seed=rng.randrange(2**31),
            variant=variant,
            run_id=f"demo-run-{index + 1:0{width}d}",
            slowdown=slowdown,
        )
    return runs


def text_stream(
    n: int, *, rate: float | None = None, run_id: str = "text-run"
) -> Iterator[dict[str, Any]]:
    """A bare Mastra text run of ``n`` deltas, as fast as possible or at ``rate`` per second."""
    words = _words(_ANSWER)

    def chunk(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": type_, "runId": run_id, "from": "AGENT", "payload": payload}

    yield chunk("start", {})
    yield chunk("step-start", {"request": {}})
    yield chunk("text-start", {"id": "t"})
    start = time.monotonic()
    for i in range(n):
        if rate:
            delay = start + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        yield chunk("text-delta", {"id": "t", "text": words[i % len(words)]})
    yield chunk("text-end", {"id": "t"})
    usage = {"inputTokens": 10, "outputTokens": n, "totalTokens": 10 + n}
    yield chunk(
        "step-finish",
        {"stepResult": {"reason": "stop"}, "output": {"usage": usage}, "metadata": {}},
    )
    yield chunk(
        "finish",
        {
            "stepResult": {"reason": "stop"},
            "output": {"usage": usage},
            "metadata": {},
            "messages": {"all": [], "user": [], "nonUser": []},
        },
    )
