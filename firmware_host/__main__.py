from firmware_host.cli import main

raise SystemExit(main())
