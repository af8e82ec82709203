build-x/obj/src/pyframes/reader.o: src/pyframes/reader.c \
 src/preload/realsym.h src/preload/safecopy.h src/pyframes/pyframes.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/preload/hot.h
src/preload/realsym.h:
src/preload/safecopy.h:
src/pyframes/pyframes.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
