"""Fixtures the CLI journeys share."""

from tests.e2e.instance_support import instance_sshd  # noqa: F401 - a fixture, found by pytest here
