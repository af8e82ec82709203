build-x/obj/src/format/reader_merge.o: src/format/reader_merge.c \
 src/format/reader_merge.h src/analyze/model/u64map.h \
 include/hipvis/api.h include/hipvis/api_cuda.h include/hipvis/reader.h \
 include/hipvis/trace.h
src/format/reader_merge.h:
src/analyze/model/u64map.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
include/hipvis/reader.h:
include/hipvis/trace.h:
