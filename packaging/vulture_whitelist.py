"""Names vulture (the dead-code check in `python3 packaging/bootstrap.py test`) cannot see being used.

Vulture reads app/ and this file; a name written here counts as used. Each group says who uses it.
Anything else vulture reports is dead: delete it rather than list it here.
"""

# ruff: noqa: B018, F821
# `_` stands for "an attribute of any object"; the names are never run, only read by vulture.

# -- entry points and names looked up by string --------------------------------------------------
gui_main  # pyproject.toml [project.gui-scripts]
AwsProvider, TencentProvider, AlibabaProvider, HuaweiProvider  # spec.py names them for registry.lazy_factory
AzureProvider  # app/cloud/azure/__init__.py names it for registry.lazy_factory
PaperspaceProvider  # app/cloud/paperspace/__init__.py names it for registry.lazy_factory
GcpProvider  # app/cloud/gcp/__init__.py names it for registry.lazy_factory
LambdaProvider  # app/cloud/lambdalabs/__init__.py names it for registry.lazy_factory
aws_import_candidates, tencent_import_candidates  # spec.py ImporterDecl "module:function"
FROZEN_PACKAGES  # packaging/spec_support.py reads the literal from each plugin's spec.py
DOCUMENTED_ERROR_CODES  # the plugin package's lazy exports (its __init__ maps the name to .errors)
AdvisorPage, AccountsPage, MonitorPage, OffersPage, HostsPage, SyncPage, JobsPage, VpnPage, SettingsPage  # PAGES
_.ignore_ssl_verification  # the Huawei SDK's HttpConfig reads it (app/cloud/huawei/client.py)
_.nav_title  # main_window: every page class has nav_title() (its test compares it with the list)
_.stop_terminates  # a Capabilities field read by name: providers.has(provider, "stop_terminates")

# -- Qt and pyqtgraph call these overrides -------------------------------------------------------
_.textFromValue, _.valueFromText, _.stepBy  # QDoubleSpinBox
_.eventFilter  # QObject.installEventFilter
_.headerData, _.paint  # QAbstractItemModel, QStyledItemDelegate
_.filterAcceptsRow, source_parent  # QSortFilterProxyModel
_.itemAt, _.takeAt, _.expandingDirections, _.hasHeightForWidth, _.heightForWidth  # QLayout
_.boundingRect, frac, orthoRange  # pyqtgraph GraphicsObject (dataBounds' signature)

# -- library protocols -----------------------------------------------------------------------------
_.exc_text  # logging.Formatter reads record.exc_text
_.row_factory  # sqlite3.Connection
_.redirect_request  # urllib's HTTPRedirectHandler (app/notify/channels.py: redirects are not followed)
_.seqno  # paramiko reads Message.seqno, as its own Packetizer.read_message sets it
_.read_all  # paramiko's Packetizer method, replaced on a transport (fastssh)
_.read_ready, _.set_event  # paramiko.Channel calls these on its in-buffer (fastssh pipe)
_._check_value  # argparse.ArgumentParser checks each choice with it (app/cli/output.py: Parser names the nearest)
_._get_formatter  # argparse.ArgumentParser makes its help formatter with it (app/cli/__init__.py: _Unsaid)

# -- str enums: members are compared by their string value (app/core/vocab.py, app/usecases/changes.py)
IDLE_NOTIFY, IDLE_STOP, BUDGET_WARN, BUDGET_STOP, MAX_RUNTIME, PROCESS_EXIT, STOP_FAILED, NOTIFY_ONLY
SYNC_DONE, SYNC_NONE, SYNC_FAILED, STOP_REFUSED, TERMINATE_FAILED, BUDGET_UNKNOWN, BUDGET_PRICED
BLIND, SIGHTED, WATCHDOG
LEDGER, GUARDS, HOSTS, ACCOUNTS, SYNC, NO_CHANGES

# -- record fields: saved (asdict / JSON), printed by `--json`, or part of a documented result ------
schema_version, _.schema_version  # settings.json
imported_at, dev, _.dev  # the VPN profile store's records
settlement, stop_without_charging  # ProviderSpec billing facts
low_gb, high_gb  # the advisor's VRAM estimate range
offer_key, run_hours, gpus_total, _.projected_to_budget_h  # cost estimate (MONITOR_API names)
unchanged_bytes, _.unchanged_bytes  # the sync plan's summary

# -- what a test reads to see behaviour a user would notice ---------------------------------------
_.streams_started, _.connections_served, _.reconnects, _.redraws, _.failed_rows  # counters
_.last_progress, _.guard_saved, _.on_demand_line  # the last state shown
_.add_dialog, _.key_dialog, _.changed_box, _.import_dialog, _.launch_dialog, launch_dialog, _._task  # kept alive
_.menu_texts, _.post_event, _.settled, _.wait_cancel, _.statuses  # tray and task runner
_.held, _.wait_runs, _.stop_instance, _.running_costs  # watcher lock and episodes
_.wait_running, _.open_sftp, _.rename  # provider and connection calls the real-peer tests drive
contrast_ratio  # the colour-contrast test (WCAG ratio of the theme's pairs)
offer_matches  # the plain filter rules; the test holds offerquery.filter_mask (the fast path) equal to them
_.job_for  # SyncJobs' query for a pair's job: the sync job tests find a guard's queued pull by it
_.wait_rounds  # app/watch/waits.py: the wait-for-a-GPU tests wait on the watcher's rounds (an event, no sleep)
_.lines_cut, _.chars_dropped, _.tracked_sizes  # app/core/logins.py: what the parser's bound tests read
_.wait_checks  # app/watch/rounds.py: the logins and cloud-audit tests wait on the watcher's checks (no sleep)
is_enabled, unregister_plugin, DEFAULT_KEY_NAME, warn  # autostart, toy plugins, key file name, dialogs
_.other_zones, _.resume_argv_text, RecoveryPolicyStore, _.effective  # the recovery policy: its editors
_.saved_note  # a spot recovery's record: what it saved and what not (said in its event; kept for `recovery show`)
_.run_of  # app.core.runs: which run an instance is in (spot recovery links it; labgpu recovery show)
