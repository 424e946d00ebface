"""Cloud providers behind one protocol (see base.py). SDKs are imported lazily inside each module."""
