"""Cross-site scripting payloads, and a stream that puts each one in every place a run shows.

Every payload, if a browser ever ran it, sets the canary ``window.__xss`` to its own number
(``top.__xss=N``), or opens a dialog (``alert(N)``) where it would run in an opaque origin
(``data:`` documents) that cannot touch ``top``. A test that renders the stream asserts that
the canary is unset and that no dialog opened. The numbers say which payload ran.

Categories: script tags, event-handler attributes, ``javascript:`` URLs, ``data:`` URLs, SVG,
MathML, markdown links and images, HTML entities and mixed case, CSS injection, template
syntax, and parser-confusion tricks.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

#: The global a payload sets when it runs.
CANARY = "__xss"


@dataclass(frozen=True)
class Payload:
    """One attack string."""

    #: Its number: what the canary (or the dialog) holds if it ran.
    number: int
    #: Its family (script, handler, javascript-url, ...).
    category: str
    #: The string itself.
    text: str


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


# {js} sets the canary; {alert} opens a dialog; {b64html}/{b64svg} are base64 documents
# that alert; {ejs} is {js} spelled with HTML character references.
_TEMPLATES: list[tuple[str, str]] = [
    # script tags
    ("script", "<script>{js}</script>"),
    ("script", "<SCRIPT>{js}</SCRIPT>"),
    ("script", '<script src="data:text/javascript,{js}"></script>'),
    ("script", "<scr<script>ipt>{js}</scr</script>ipt>"),
    ("script", "</script><script>{js}</script>"),
    ("script", "<script/x>{js}</script>"),
    ("script", '"><script>{js}</script>'),
    ("script", "'><script>{js}</script>"),
    ("script", "</title><script>{js}</script>"),
    ("script", "</textarea><script>{js}</script>"),
    ("script", "</style><script>{js}</script>"),
    ("script", "<!--><script>{js}</script>-->"),
    ("script", "<![CDATA[<script>{js}</script>]]>"),
    ("script", "<template><script>{js}</script></template>"),
    ("script", "\x00<script>{js}</script>"),
    ("script", "<scr\x00ipt>{js}</script>"),
    ("script", "<script>/*</script><script>*/{js}</script>"),
    # event-handler attributes
    ("handler", "<img src=x onerror={js}>"),
    ("handler", '<img src=x onerror="{js}">'),
    ("handler", "<IMG SRC=x OnErRoR={js}>"),
    ("handler", "<img/src=x/onerror={js}>"),
    ("handler", "<img src=`x` onerror={js}>"),
    ("handler", "<svg onload={js}>"),
    ("handler", "<svg/onload={js}>"),
    ("handler", "<body onload={js}>"),
    ("handler", "<body/onpageshow={js}>"),
    ("handler", "<iframe onload={js}></iframe>"),
    ("handler", "<input autofocus onfocus={js}>"),
    ("handler", "<select autofocus onfocus={js}></select>"),
    ("handler", "<textarea autofocus onfocus={js}></textarea>"),
    ("handler", "<details open ontoggle={js}>x</details>"),
    ("handler", "<video><source onerror={js}></video>"),
    ("handler", "<audio src=x onerror={js}></audio>"),
    ("handler", "<marquee onstart={js}>x</marquee>"),
    ("handler", "<object data=x onerror={js}></object>"),
    ("handler", "<image src=x onerror={js}>"),
    ("handler", "<style onload={js}></style>"),
    ("handler", "<link rel=stylesheet href=x onerror={js}>"),
    ("handler", "<div onpointerover={js} style=position:fixed;inset:0>cover</div>"),
    ("handler", '<img src=x onerror="{ejs}">'),
    ("handler", "″><svg onload={js}>"),
    ("handler", "<img src=x:alert(alt) onerror=eval(src) alt={n}>"),
    # javascript: URLs
    ("javascript-url", "javascript:{js}"),
    ("javascript-url", "JAVASCRIPT:{js}"),
    ("javascript-url", " \tjavascript:{js}"),
    ("javascript-url", "java\nscript:{js}"),
    ("javascript-url", '<a href="javascript:{js}">link</a>'),
    ("javascript-url", '<a href="JaVaScRiPt:{js}">link</a>'),
    ("javascript-url", '<a href="&#106;avascript:{js}">link</a>'),
    ("javascript-url", '<a href="java&#x09;script:{js}">link</a>'),
    ("javascript-url", '<a href="jav&#x0A;ascript:{js}">link</a>'),
    ("javascript-url", "<a href=javascript&colon;{js}>link</a>"),
    ("javascript-url", '<iframe src="javascript:{js}"></iframe>'),
    ("javascript-url", '<embed src="javascript:{js}">'),
    ("javascript-url", '<form action="javascript:{js}"><input type=submit></form>'),
    ("javascript-url", "<form><button formaction=javascript:{js}>go</button></form>"),
    ("javascript-url", '<meta http-equiv="refresh" content="0;url=javascript:{js}">'),
    ("javascript-url", '<base href="javascript:{js}//">'),
    # data: URLs
    ("data-url", "data:text/html,<script>{alert}</script>"),
    ("data-url", "data:text/html;base64,{b64html}"),
    ("data-url", "data:image/svg+xml;base64,{b64svg}"),
    ("data-url", '<iframe src="data:text/html,<script>{alert}</script>"></iframe>'),
    ("data-url", '<object data="data:text/html;base64,{b64html}"></object>'),
    ("data-url", '<embed src="data:image/svg+xml;base64,{b64svg}">'),
    ("data-url", '<a href="data:text/html,<script>{alert}</script>">x</a>'),
    (
        "data-url",
        '<img src="data:image/svg+xml,<svg onload={alert} xmlns=%22http://www.w3.org/2000/svg%22/>">',
    ),
    ("data-url", '<iframe srcdoc="<script>{js}</script>"></iframe>'),
    # SVG
    ("svg", "<svg><script>{js}</script></svg>"),
    ("svg", '<svg><script href="data:,{js}"/></svg>'),
    (
        "svg",
        '<svg><foreignObject><iframe srcdoc="<script>{js}</script>"></iframe>'
        "</foreignObject></svg>",
    ),
    ("svg", '<svg><a xlink:href="javascript:{js}"><text x=20 y=20>x</text></a></svg>'),
    ("svg", "<svg><animate onbegin={js} attributeName=x dur=1s>"),
    ("svg", "<svg><set onbegin={js} attributeName=x to=1>"),
    ("svg", "<svg><image href=x onerror={js} /></svg>"),
    ("svg", "<svg><desc><![CDATA[</desc><script>{js}</script>]]></svg>"),
    ("svg", "<svg><style><img src=x onerror={js}></style></svg>"),
    ("svg", '<svg><use href="data:image/svg+xml;base64,{b64svg}#x"/></svg>'),
    # MathML
    ("mathml", "<math><mtext><table><mglyph><style><img src=x onerror={js}>"),
    ("mathml", '<math><mi xlink:href="javascript:{js}">x</mi></math>'),
    (
        "mathml",
        "<math><maction actiontype=statusline xlink:href=javascript:{js}>x</maction></math>",
    ),
    (
        "mathml",
        '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style>'
        '<img onerror={js} src=1>">',
    ),
    (
        "mathml",
        '<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style>'
        '<img src onerror={js}>"></style></h1>',
    ),
    ("mathml", '<math><a xlink:href="javascript:{js}">x</a></math>'),
    # markdown links and images
    ("markdown", "[click](javascript:{js})"),
    ("markdown", "[click](JAVASCRIPT:{js})"),
    ("markdown", "[click](javascript&#58;{js})"),
    ("markdown", "[click](<javascript:{js}>)"),
    ("markdown", '![img](x"onerror="{js})'),
    ("markdown", "![img](javascript:{js})"),
    ("markdown", "![img](data:image/svg+xml;base64,{b64svg})"),
    ("markdown", "[ref]: javascript:{js}\n\n[link][ref]"),
    ("markdown", "<javascript:{js}>"),
    ("markdown", "[x](data:text/html;base64,{b64html})"),
    ("markdown", "`<script>{js}</script>`"),
    ("markdown", "```html\n<script>{js}</script>\n```"),
    ("markdown", "[![x](x)](javascript:{js})"),
    ("markdown", '[x](#" onclick="{js})'),
    ("markdown", '[x](https://a.example/"onmouseover="{js})'),
    ("markdown", "**<img src=x onerror={js}>**"),
    ("markdown", "> <img src=x onerror={js}>"),
    ("markdown", "| a |\n|---|\n| <img src=x onerror={js}> |"),
    # entities and mixed case
    ("entities", "&lt;script&gt;{js}&lt;/script&gt;"),
    ("entities", "&#60;img src=x onerror={js}&#62;"),
    ("entities", '<IMG """><SCRIPT>{js}</SCRIPT>">'),
    ("entities", "<iMg sRc=x OnErRoR={js}>"),
    ("entities", "\\u003cscript\\u003e{js}\\u003c/script\\u003e"),
    ("entities", "%3Cscript%3E{js}%3C/script%3E"),
    ("entities", "<img src=x onerror=&#x74;op.__xss={n}>"),
    # CSS injection
    ("css", '<div style="background:url(javascript:{js})">x</div>'),
    ("css", '<div style="width:expression({js})">x</div>'),
    ("css", '<style>*{{background:url("javascript:{js}")}}</style>'),
    ("css", '<style>@import "javascript:{js}";</style>'),
    ("css", "</style><img src=x onerror={js}>"),
    ("css", '<link rel=stylesheet href="data:text/css,*{{color:red}}">'),
    ("css", '<div style="position:fixed;inset:0;z-index:99999;background:#f00">overlay</div>'),
    # template-looking strings
    ("template", "{{{{constructor.constructor('{js}')()}}}}"),
    ("template", "{{{{$on.constructor('{js}')()}}}}"),
    ("template", "${{{js}}}"),
    ("template", "`${{{js}}}`"),
    ("template", "{{{{{js}}}}}"),
    ("template", "<%= {js} %>"),
    ("template", "#{{{js}}}"),
    ("template", "[[${{{js}}}]]"),
    ("template", "${{alert({n})}}"),
    # parser confusion
    ("confusion", '<noscript><p title="</noscript><img src=x onerror={js}>">'),
    ("confusion", '<xmp><p title="</xmp><img src=x onerror={js}>">'),
    ("confusion", '<noembed><img title="</noembed><img src=x onerror={js}>"></noembed>'),
    ("confusion", "<isindex action=javascript:{js} type=image>"),
    ("confusion", '<a href="#" id=cs-stop name=cs-stop>clobber</a><img src=x onerror={js}>'),
    ("confusion", '<form id="__xss"></form><img name="jupyterapp" src=x onerror={js}>'),
]


def _render(template: str, number: int) -> str:
    js = f"top.{CANARY}={number}"
    alert = f"alert({number})"
    return template.format(
        js=js,
        n=number,
        alert=alert,
        ejs="".join(f"&#{ord(c)};" for c in js),
        b64html=_b64(f"<script>{alert}</script>"),
        b64svg=_b64(
            f'<svg xmlns="http://www.w3.org/2000/svg" id="x" onload="{alert}">'
            f"<script>{alert}</script></svg>"
        ),
    )


PAYLOADS: list[Payload] = [
    Payload(number, category, _render(template, number))
    for number, (category, template) in enumerate(_TEMPLATES, start=1)
]
"""The corpus, numbered from 1."""

RUN_ID = "xss-run"


def _chunk(type_: str, **payload: Any) -> dict[str, Any]:
    return {"type": type_, "runId": RUN_ID, "from": "AGENT", "payload": payload}


def carriers(payload: Payload) -> list[dict[str, Any]]:
    """Chunks putting ``payload`` in every field a run shows, inside the current step."""
    n, text = payload.number, payload.text
    call = f"call-{n}"
    args_text = json.dumps({"query": text, "html": text})
    return [
        _chunk("tool-call-input-streaming-start", toolCallId=call, toolName=text),
        _chunk("tool-call-delta", toolCallId=call, toolName=text, argsTextDelta=args_text[:20]),
        _chunk("tool-call-delta", toolCallId=call, toolName=text, argsTextDelta=args_text[20:]),
        _chunk("tool-call-input-streaming-end", toolCallId=call),
        _chunk("tool-call", toolCallId=call, toolName=text, args={"query": text, text: text}),
        _chunk("tool-output", toolCallId=call, toolName=text, output={"note": text}),
        _chunk(
            "tool-result", toolCallId=call, toolName=text, result={"html": text, "items": [text]}
        )
        if n % 3
        else _chunk(
            "tool-error", toolCallId=call, toolName=text, error={"message": text, "name": text}
        ),
        _chunk("source", id=f"s-{n}", sourceType="url", title=text, url=text),
        _chunk(
            "source",
            id=f"d-{n}",
            sourceType="document",
            title=text,
            mimeType=text,
            filename=text,
        ),
        _chunk("file", data=_b64(text), mimeType="text/html", filename=text),
        _chunk("file", data=text, mimeType=text, filename=f"{n}.svg"),
        _chunk(
            "file",
            data=_b64(f'<svg xmlns="http://www.w3.org/2000/svg" onload="top.{CANARY}={n}"/>'),
            mimeType="image/svg+xml",
            filename=text,
        ),
        {"type": "data-xss", "id": f"x-{n}", "data": {"html": text, text: [text]}},
        {"type": "data-live", "id": f"l-{n}", "data": {"label": text}, "transient": True},
        {"type": f"data-{text}", "data": text},
        {"type": text, "payload": {"html": text}},
        _chunk("error", error={"message": text, "name": text, "stack": text}),
        _chunk("tripwire", reason=text, processorId=text),
    ]


def xss_stream() -> list[dict[str, Any]]:
    """A whole run: every payload as markdown text, reasoning and in every other field."""
    chunks = [
        _chunk("start", id="xss-agent", messageId="m"),
        _chunk("step-start", request={}, warnings=[p.text for p in PAYLOADS[:5]], messageId="m"),
        _chunk("reasoning-start", id="r"),
        *(_chunk("reasoning-delta", id="r", text=p.text + "\n\n") for p in PAYLOADS),
        _chunk("reasoning-end", id="r"),
        _chunk("text-start", id="t"),
        *(_chunk("text-delta", id="t", text=p.text + "\n\n") for p in PAYLOADS),
        _chunk("text-end", id="t"),
    ]
    for payload in PAYLOADS:
        chunks += carriers(payload)
    chunks.append(
        _chunk(
            "finish",
            stepResult={"reason": "stop", "isContinued": False},
            output={"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}},
            metadata={},
            messages={"all": [], "user": [], "nonUser": []},
        )
    )
    return chunks
