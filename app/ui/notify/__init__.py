"""Settings → Notifications: the channels list, the add/edit dialog, Send a test."""
