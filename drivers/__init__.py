"""Everything between the table's hardware and the controller: readers, zones, deck registry, GPIO.

Importing this package never touches Pi-only modules; they are imported when a device opens.

Modules (each documents its API):

- :mod:`drivers.events`: the event vocabulary (``TagLaid``, ``TagGone``, ``ReaderFault``,
  ``ReaderBack``, ``ButtonPress``, ``ButtonHold``) and event sinks (a callable or a queue).
- :mod:`drivers.zones`: ``ZoneTracker``, the one place that debounces (laid after two reads,
  gone after a second unseen), and the zone names.
- :mod:`drivers.readerset`: ``build_readers(configs, on_event)`` from the config's
  ``[[readers]]`` dicts; ``ReaderSet.start()``/``close()``.
- :mod:`drivers.mfrc522`: our MFRC522 driver on ``spidev``; :mod:`drivers.poller`: one thread
  polling up to five of them, one antenna field on at a time.
- :mod:`drivers.mfrc522_emu`: the emulated MFRC522 (registers, FIFO, timer, ISO 14443A tags)
  behind a fake ``spidev.SpiDev``; :mod:`drivers.clock`: real and virtual time.
- :mod:`drivers.serial_board`: USB reader boards (line protocol, resync, reconnection);
  :mod:`drivers.boardsim`: a simulated board on a pseudo-terminal.
- :mod:`drivers.scripted`: tag lines of a table script (replay, simulator).
- :mod:`drivers.decks`: ``Deck``, ``DeckRegistry``, TOML load/save, ``EnrolmentSession``.
- :mod:`drivers.gpio`: ``TableIO`` (buttons, turn lights, buzzer); :mod:`drivers.gpio_mock`:
  a mock pin factory that debounces like the Pi's; :mod:`drivers.pins`: the one default pin
  factory, created once under a lock for every thread.
- :mod:`drivers.bench`: the ``readers`` group of ``skat-table bench``.
"""
