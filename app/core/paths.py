"""Where LabGPU keeps config, data, cache and logs. ``LABGPU_HOME`` moves all of them."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

APP_DIR_NAME = "labgpu"


@dataclass(frozen=True)
class Paths:
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    log_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def database_file(self) -> Path:
        return self.data_dir / "labgpu.sqlite3"

    @property
    def log_file(self) -> Path:
        return self.log_dir / "labgpu.log"

    def ensure(self) -> Paths:
        for d in (self.config_dir, self.data_dir, self.cache_dir, self.log_dir):
            d.mkdir(parents=True, exist_ok=True)
            try:
                d.chmod(0o700)
            except OSError:
                pass
        return self


def default_paths() -> Paths:
    home = os.environ.get("LABGPU_HOME")
    if home:
        root = Path(home).expanduser().resolve()
        return Paths(root / "config", root / "data", root / "cache", root / "logs")
    import platformdirs

    return Paths(
        Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False)),
        Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)),
        Path(platformdirs.user_cache_dir(APP_DIR_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_DIR_NAME, appauthor=False)),
    )


def atomic_write_text(path: Path, text: str, mode: int = 0o600) -> None:
    """Write via a temporary file in the same folder and ``os.replace``: never a half file.

    The temporary file has an unpredictable name made by ``tempfile.mkstemp`` (O_CREAT|O_EXCL,
    mode 0600 from the start): a file or symlink planted under any name there is never opened,
    let alone written through. The rename replaces ``path`` itself, never what a symlink at
    ``path`` points to. On failure the temporary file is removed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            if hasattr(os, "fchmod"):
                try:
                    os.fchmod(fh.fileno(), mode)
                except OSError:
                    pass
            os.fsync(fh.fileno())
        if not hasattr(os, "fchmod"):
            try:
                os.chmod(tmp, mode)
            except OSError:
                pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
