"""The live-room core: what every kind of room (a Hive game, an Enjambre table) does alike."""
