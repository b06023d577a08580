import sys,os,time
pid=sys.argv[1]; tag=sys.argv[2]; i=0
time.sleep(3)
while os.path.exists(f'/proc/{pid}/task'):
    out=[f'{time.time()}']
    try:
        for t in os.listdir(f'/proc/{pid}/task'):
            try:
                comm=open(f'/proc/{pid}/task/{t}/comm').read().strip().replace(' ','_')
                ss=open(f'/proc/{pid}/task/{t}/schedstat').read().split()
                st=open(f'/proc/{pid}/task/{t}/status').read().splitlines()
                vol=[l.split()[1] for l in st if l.startswith('voluntary_ctxt')][0]
                inv=[l.split()[1] for l in st if l.startswith('nonvoluntary_ctxt')][0]
                out.append(f'{t} {comm} {ss[0]} {ss[1]} {ss[2]} {vol} {inv}')
            except Exception: pass
    except Exception: break
    i+=1
    open(f'snap-{tag}-{i}.txt','w').write('\n'.join(out)+'\n')
    time.sleep(2)
