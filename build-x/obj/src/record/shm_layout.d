build-x/obj/src/record/shm_layout.o: src/record/shm_layout.c \
 src/record/shm_layout.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/record/collector.h src/record/clock.h \
 src/record/ring.h
src/record/shm_layout.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
