"""The advisor page (five-step wizard → ranked offers) and the cost estimator widget."""
