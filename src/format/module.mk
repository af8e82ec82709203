# Trace format: the writer (linked into the preload library and the sidecar)
# and the one reader (hipvis-dump, the analyzer, the sidecar), plus the
# record -> text/JSON printer the tools share. The one hash map
# (src/common/u64map.c) lives in this, the lowest library, so the
# reader and the analyzer share it.
FORMAT_SRCS += \
    src/format/api_table.c \
    src/format/names.c \
    src/format/rec_layout.c \
    src/format/strtab.c \
    src/format/reorder.c \
    src/format/reader_input.c \
    src/format/reader_frames.c \
    src/format/reader_slots.c \
    src/format/reader_pipe.c \
    src/format/reader_merge.c \
    src/format/derive.c \
    src/format/codec.c \
    src/format/reader.c \
    src/format/reader_tail.c \
    src/format/trace_path.c \
    src/format/trace_writer.c \
    src/format/fields.c \
    src/format/record_print.c \
    src/format/dump.c

$(BUILD)/libhvformat.a: $(call obj,$(FORMAT_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

PROGRAMS += $(BUILD)/libhvformat.a
