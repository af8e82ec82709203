build-x/obj/src/record/writer_thread.o: src/record/writer_thread.c \
 src/record/writer_thread.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/record/clock.h src/record/collector.h \
 src/record/ring.h src/format/trace_writer.h
src/record/writer_thread.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/record/clock.h:
src/record/collector.h:
src/record/ring.h:
src/format/trace_writer.h:
