"""Offers page: the GPU offer table with filters, details and the advisor ranking."""
