document.getElementById('app').textContent='Gatehouse';
