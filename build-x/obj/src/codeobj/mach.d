build-x/obj/src/codeobj/mach.o: src/codeobj/mach.c src/codeobj/codeobj.h
src/codeobj/codeobj.h:
