build-x/obj/src/format/reader_input.o: src/format/reader_input.c \
 src/format/reader_int.h src/format/codec.h src/analyze/model/u64map.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/format/frame.h src/format/reader_merge.h include/hipvis/reader.h \
 src/format/reorder.h src/format/strtab.h
src/format/reader_int.h:
src/format/codec.h:
src/analyze/model/u64map.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/format/frame.h:
src/format/reader_merge.h:
include/hipvis/reader.h:
src/format/reorder.h:
src/format/strtab.h:
