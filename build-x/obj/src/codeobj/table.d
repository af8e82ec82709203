build-x/obj/src/codeobj/table.o: src/codeobj/table.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
