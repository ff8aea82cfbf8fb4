"""The table's other commands (floor 5): the simulator and the table over emulated radios
it can run, replay of a table script, export of a journalled series, deck enrolment, iss-check.
"""
