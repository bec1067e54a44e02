"""Executes the notebooks of this folder headless with nbclient and checks what each printed and plotted.

markets.ipynb ticks prices and plots them; a-day-of-prices.ipynb steps the stub clock an hour at a
time through a day with the generic lifecycle and plots it (docs/python.md, "Time in tests").
Usage: python run_notebook.py [OUT_DIR]  (the executed notebooks and their figures are written
there; default: a temporary folder). Exits 1 when a cell fails or an expected output is missing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent


#: Each notebook: what its outputs must contain, and the figure it must save.
NOTEBOOKS = {
    "markets.ipynb": (["stub at http://127.0.0.1:", "(6, 12)", "saved prices.png 6 lines", "6 list requests in the journal"], "prices.png"),
    "a-day-of-prices.ipynb": (
        [
            "lifecycle generic",
            "25 instants;",
            ": active -> closed -> resolved",
            "saved a-day-of-prices.png 6 lines;",
        ],
        "a-day-of-prices.png",
    ),
}


def run(name: str, out: Path) -> bool:
    """Executes one notebook in ``out``; True when every expected output and its figure are there."""
    expected, figure = NOTEBOOKS[name]
    notebook = nbformat.read(HERE / name, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(out)}}).execute()
    nbformat.write(notebook, out / name.replace(".ipynb", ".executed.ipynb"))
    text = "\n".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", []))
    missing = [e for e in expected if e not in text]
    if missing or not (out / figure).stat().st_size > 0:
        print(f"run_notebook: {name}: missing {missing} in the outputs:\n{text}", file=sys.stderr)
        return False
    print(f"run_notebook: {name} executed headless, {len(notebook.cells)} cells; {out / figure}")
    return True


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="market-stub-notebook-"))
    out.mkdir(parents=True, exist_ok=True)
    results = [run(name, out) for name in NOTEBOOKS]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
