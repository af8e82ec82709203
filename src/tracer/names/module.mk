# Names, marks and regions (docs/names.md): the public API of
# include/hipvis/hipvis.h, HIPVIS_START gating, NVTX injection and roctx
# interposition. Part of the preload library.
PRELOAD_SRCS += $(wildcard src/tracer/names/*.c)

# The hipvis Python module (python/hipvis): installed beside the man pages;
# add PREFIX/share/hipvis/python to PYTHONPATH. The C header is installed
# with the others (include/hipvis/hipvis.h).
.PHONY: install-python
install: install-python
install-python:
	install -d $(DESTDIR)$(PREFIX)/share/hipvis/python/hipvis
	install -m 0644 python/hipvis/*.py python/hipvis/py.typed $(DESTDIR)$(PREFIX)/share/hipvis/python/hipvis/
