"""The GPU monitor page, its plots, the process table, CSV export, tuning hints and cost helpers."""
