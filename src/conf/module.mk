# Settings: the one parser for numbers in HIPVIS_* variables and in the
# tools' options (strict digits: no sign, no blanks, no empty value).
# Part of libhvformat, which the preload library and every tool link (listed
# before src/format/module.mk reads FORMAT_SRCS: fragments are included
# sorted).
FORMAT_SRCS += src/conf/number.c
