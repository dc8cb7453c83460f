"""The Discord front end: a discord.py 2.x adapter over :mod:`bot.service`.

It holds no game logic.  Commands and buttons turn interactions into service calls, and service
results into messages; every refusal becomes an ephemeral reply that says what is wrong.
"""
