"""``skat-table link``: the table's club link, its own process (DESIGN.md "Club").

It reads the finished games from the controller's journal (the outbox), publishes each to the
club's MQTT broker with QoS 1, records what the broker acknowledged (:mod:`link.ledger`),
keeps the table's retained status (with a last will), and hands the seating the club server
sends to the controller through a spool file (:mod:`firmware_host.clubfiles`). The controller
itself opens no socket; only this package talks to the network (paho-mqtt).
"""
