"""Executes markets.ipynb headless with nbclient and checks what it printed and plotted.

Usage: python run_notebook.py [OUT_DIR]  (the executed notebook and prices.png are written there;
default: a temporary folder). Exits 1 when a cell fails or an expected output is missing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="market-stub-notebook-"))
    out.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.read(HERE / "markets.ipynb", as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(out)}}).execute()
    nbformat.write(notebook, out / "markets.executed.ipynb")
    text = "\n".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", []))
    expected = ["stub at http://127.0.0.1:", "(6, 12)", "saved prices.png 6 lines", "6 list requests in the journal"]
    missing = [e for e in expected if e not in text]
    if missing or not (out / "prices.png").stat().st_size > 0:
        print(f"run_notebook: missing {missing} in the outputs:\n{text}", file=sys.stderr)
        return 1
    print(f"run_notebook: markets.ipynb executed headless, {len(notebook.cells)} cells; {out / 'markets.executed.ipynb'}, {out / 'prices.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
