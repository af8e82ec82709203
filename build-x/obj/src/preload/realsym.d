build-x/obj/src/preload/realsym.o: src/preload/realsym.c \
 src/preload/realsym.h src/util/elfsym.h
src/preload/realsym.h:
src/util/elfsym.h:
