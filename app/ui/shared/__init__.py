"""What several feature packages under app/ui share, and the only way they share it.

Feature packages (advisor, cloud, monitor, offers, remote) never import each other (an
import-linter contract in pyproject.toml); what two of them need lives here, and this package
imports no feature package. To reach another feature's page, a page calls
``ctx.navigate(page_id, payload)`` and that page's ``activate(payload)`` does the rest.
"""
