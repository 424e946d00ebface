"""The domain, in pure Python: nothing here imports Qt, the UI, cloud SDKs or paramiko."""
