"""Remote pages: Hosts (SSH connections, host keys, port forwards), Sync and VPN."""
