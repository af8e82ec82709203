"""The package's version: the C tools' (the Makefile's HIPVIS_VERSION);
make check-python fails when they differ."""
__version__ = "0.1.0"
