build-x/obj/src/format/trace_writer.o: src/format/trace_writer.c \
 src/format/codec.h src/analyze/model/u64map.h include/hipvis/trace.h \
 include/hipvis/api.h include/hipvis/api_cuda.h src/format/frame.h \
 src/format/trace_path.h src/format/trace_writer.h
src/format/codec.h:
src/analyze/model/u64map.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/format/frame.h:
src/format/trace_path.h:
src/format/trace_writer.h:
