"""chunkscope in marimo: a StreamView fed by the offline demo agent.

Run it with ``marimo run examples/marimo_demo.py`` (or ``marimo edit`` to change it).
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    import chunkscope as cs

    return cs, mo


@app.cell
def _(mo):
    mo.md("""
    # chunkscope in marimo

    The built-in demo agent (offline, scripted, paced like a real agent) streams into a
    `StreamView` wrapped by `mo.ui.anywidget`. The transcript, timeline and chunk inspector
    fill in live; the download progress is a transient chunk, shown in the live-activity
    strip and never kept.

    The run is read in the background, so no cell waits for it: marimo answers the widget's
    messages between cell runs, and a cell that awaited the run would hold the view at
    *waiting* until the run ended.
    """)
    return


@app.cell
def _(cs, mo):
    view = cs.StreamView(cs.demo.stream(speed=1.0), title="weather demo")
    widget = mo.ui.anywidget(view)
    widget  # noqa: B018 (a marimo cell shows its last expression)
    return (view,)


@app.cell
def _(mo):
    show_transcript = mo.ui.run_button(label="Show the final transcript")
    show_transcript  # noqa: B018 (a marimo cell shows its last expression)
    return (show_transcript,)


@app.cell
def _(mo, show_transcript, view):
    mo.stop(not show_transcript.value)
    mo.plain_text(
        view.state.transcript()
        if view.done
        else "The run is still streaming: press the button again once it has finished."
    )
    return


if __name__ == "__main__":
    app.run()
