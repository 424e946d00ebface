"""The Jobs page: training runs started detached on a host, their progress, cost, log tail and stop."""
