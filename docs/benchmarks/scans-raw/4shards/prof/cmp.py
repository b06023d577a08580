# cmp.py A.txt B.txt OPS_PER_S_A OPS_PER_S_B [ROWS]: us per scan of each frame in two agg.py outputs
import re,sys
def load(f):
    d={}; sec=None; n=0
    for l in open(f):
        if l.startswith('samples'): n=int(l.split()[1])
        if l.startswith('---'): sec=l.split()[1]; continue
        m=re.match(r'\s*([\d.]+)% (.*)',l)
        if m: d.setdefault(sec,{})[m.group(2)[:110]]=float(m.group(1))
    return d
A=load(sys.argv[1]); B=load(sys.argv[2]); opsA=float(sys.argv[3]); opsB=float(sys.argv[4])
stub=[k for k in A['inclusive'] if 'jmhStub' in k][0]
sa=A['inclusive'][stub]; sb=B['inclusive'][[k for k in B['inclusive'] if 'jmhStub' in k][0]]
for sec in ('inclusive','self'):
    print('---',sec, 'us/op A  B')
    keys=sorted(set(A[sec])|set(B[sec]), key=lambda k:-(B[sec].get(k,0)/sb/opsB))
    for k in keys[:int(sys.argv[5]) if len(sys.argv)>5 else 50]:
        ua=A[sec].get(k,0)/sa*1e6/opsA; ub=B[sec].get(k,0)/sb*1e6/opsB
        print(f'{ua:7.2f} {ub:7.2f} {ub-ua:+7.2f}  {k}')
