"""``skat-table run`` under systemd: the event loop on the table's hardware and the notify protocol
(READY, STATUS, WATCHDOG).
"""
