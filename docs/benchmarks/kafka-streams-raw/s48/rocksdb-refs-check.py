import subprocess,re,zipfile,sys,collections
kjar=sys.argv[1]; rjar=sys.argv[2]
z=zipfile.ZipFile(kjar)
classes=[n[:-6].replace('/','.') for n in z.namelist() if n.endswith('.class') and b'org/rocksdb' in z.read(n)]
refs=set()
for i in range(0,len(classes),40):
    out=subprocess.run(['javap','-c','-p','-cp',kjar]+classes[i:i+40],capture_output=True,text=True).stdout
    for m in re.finditer(r'// (?:Interface)?Method (org/rocksdb/[\w/$]+)\.("?[\w<>$]+"?):(\S+)',out):
        refs.add((m.group(1),m.group(2).strip('"'),m.group(3)))
owners=sorted({r[0] for r in refs})
sigs={}; supers={}
def load(c):
    if c in sigs: return
    out=subprocess.run(['javap','-s','-p','-cp',rjar,c.replace('/','.')],capture_output=True,text=True).stdout
    s=set(); name=None
    hdr=re.search(r'(?:class|interface) [\w.$]+(?:<[^{]*?>)?(?: extends ([\w.$<>, ]+?))?(?: implements ([\w.$<>, ]+?))? \{',out)
    sup=[]
    if hdr:
        for g in hdr.groups():
            if g: sup+= [x.strip().split('<')[0].replace('.','/') for x in g.split(',')]
    supers[c]=[x for x in sup if x.startswith('org/rocksdb')]
    lines=out.splitlines()
    for i,l in enumerate(lines):
        m=re.search(r'descriptor: (\S+)',l)
        if m:
            prev=lines[i-1]
            mn=re.search(r'([\w$]+)\(',prev)
            if mn:
                n=mn.group(1)
                if n==c.split('/')[-1].split('$')[-1]: n='<init>'
                s.add((n,m.group(1)))
    sigs[c]=s
    for x in supers[c]: load(x)
def has(c,n,d):
    load(c)
    if (n,d) in sigs[c]: return True
    return any(has(x,n,d) for x in supers.get(c,[]))
missing=[r for r in sorted(refs) if not has(*r)]
print(len(classes),'classes,',len(refs),'distinct rocksdb method refs; unresolved on',rjar.split('/')[-1]+':',len(missing))
for r in missing: print('  ',r)
