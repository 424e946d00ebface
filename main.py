"""Double-click / `python3 main.py` entry point.

From a source checkout without the dependencies, it installs them into .venv first (see
packaging/bootstrap.py) and restarts itself there.
"""

import sys
from pathlib import Path


def _bootstrap_and_run() -> int:
    import importlib.util

    root = Path(__file__).resolve().parent
    spec = importlib.util.spec_from_file_location("labgpu_bootstrap", root / "packaging" / "bootstrap.py")
    if spec is None or spec.loader is None:
        print("LabGPU: packaging/bootstrap.py is missing; reinstall LabGPU.", file=sys.stderr)
        return 1
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.run_app(sys.argv[1:]))


if __name__ == "__main__":
    try:
        import platformdirs  # noqa: F401
        import PySide6  # noqa: F401
    except ImportError:
        if getattr(sys, "frozen", False):
            raise
        sys.exit(_bootstrap_and_run())
    from app.__main__ import main

    sys.exit(main())
