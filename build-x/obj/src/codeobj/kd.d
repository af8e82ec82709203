build-x/obj/src/codeobj/kd.o: src/codeobj/kd.c src/codeobj/kd.h \
 src/codeobj/codeobj.h src/codeobj/elf.h src/codeobj/internal.h
src/codeobj/kd.h:
src/codeobj/codeobj.h:
src/codeobj/elf.h:
src/codeobj/internal.h:
