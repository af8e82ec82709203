# Creating files safely (no symlink followed, no race, owner-only modes):
# every file hipvis creates goes through here. Part of libhvformat, which the
# preload library, the sidecar and the tools all link (listed before
# src/format/module.mk reads FORMAT_SRCS: fragments are included sorted).
FORMAT_SRCS += src/fileio/safe_file.c
