"""LabGPU: compare, rent, sync with and watch cloud GPUs."""

__version__ = "0.1.0"
APP_NAME = "LabGPU"
APP_ID = "labgpu"


def _install_provider_loader() -> None:
    from app import wiring

    wiring.install_provider_loader()


_install_provider_loader()
