"""Everything between the table's hardware and the controller: readers, zones, deck registry, GPIO.

Importing this package never touches Pi-only modules; they are imported when a device opens.
"""
