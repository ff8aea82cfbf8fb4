"""``skat-table link``: the table's club link, its own process (docs/club-link.md).

It reads the finished games from the controller's journal (the outbox), publishes each to the
club's MQTT broker with QoS 1, records what the broker acknowledged
(:mod:`firmware_host.clubside.link.ledger`), keeps the table's retained status (with a last will),
and
hands the seating the club server sends to the controller through a spool file
(:mod:`firmware_host.clubside.clubfiles`).

This package is the only part of ``firmware_host`` that talks to the network (paho-mqtt), and
it runs in its own process (``systemd/skat-table-link.service``). The controller's
modules never import it: the command line names ``firmware_host.clubside.link.command`` as
text and imports it only when the command is ``link`` (``tests/test_architecture.py`` checks
both, and that a running ``skat-table run`` has neither this package nor paho loaded).
"""
