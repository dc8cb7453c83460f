"""The store's queries, one class per feature, each over one transaction's primitives.

A transaction (:class:`bot.store.tx.SharedTx`) carries one object of each class as an
attribute named after the feature: ``tx.games``, ``tx.web``, ``tx.challenges``,
``tx.ratings``, ``tx.claims``, ``tx.hints``, ``tx.tournaments``, ``tx.clocks``, ``tx.notices``,
``tx.moderation``, ``tx.bulk`` and ``tx.analysis``.  Each method's docstring is its contract
on both engines (``tests/store/test_contract.py`` checks it); the SQL is written once, with
``?`` placeholders, in the dialect SQLite and PostgreSQL share."""
