"""``skat-table run`` under systemd (floor 4): the event loop on the table's hardware, the
notify protocol (READY, STATUS, WATCHDOG), and the kiosk bench (a tap to its frame).
"""
