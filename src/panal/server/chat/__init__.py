"""Chat for each game and each table (players' and spectators' apart), mutes, reports and
moderation: a concern of its own, which the kinds of rooms plug into (see :mod:`.chat`)."""
