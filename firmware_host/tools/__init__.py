"""The table's other commands: the simulator (and the table over emulated radios it can run),
replay of a table script, deck enrolment, iss-check.
"""
