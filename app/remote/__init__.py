"""Everything that crosses SSH or the VPN: connections, host keys, sync, tunnels, monitoring."""
