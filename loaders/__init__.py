"""The parsers: one module per input format, each a generator of validated records (``records``),
with the format table (``formats``), detection, ids and title normalisation (``identity``), the
arXiv taxonomy and the error root. Nothing here imports the rest of ``kg``."""

__all__: list[str] = []
