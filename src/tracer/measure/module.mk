# Measurement scaffolding (measure.h): never part of what the shipped
# library does. selftime.c compiles to nothing unless a `make selftime`
# build (-DHV_SELFTIME) asks for hipvis's own time per API.
PRELOAD_SRCS += $(wildcard src/tracer/measure/*.c)
