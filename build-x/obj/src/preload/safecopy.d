build-x/obj/src/preload/safecopy.o: src/preload/safecopy.c \
 src/preload/safecopy.h
src/preload/safecopy.h:
